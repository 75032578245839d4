# A black group with two eyes (one true one-point eye and a two-point eye) in
# White's corner lives; two white stones in Black's territory are dead.
komi 0
board
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. O . X O . . . .
. O . X O . . . .
. . . X O O O O O
. . . X O X X X X
. . . X O X . X .
. . . X O X X X .
classes
b b b X O w w w w
b b b X O w w w w
b b b X O w w w w
b o b X O w w w w
b o b X O w w w w
b b b X O O O O O
b b b X O X X X X
b b b X O X b X b
b b b X O X X X b
score_territory 12    # (25 + 3 + 2 x 2 dead: prisoner and point) - 20
score_area 15         # (18 stones + 30) - (13 + 20)
