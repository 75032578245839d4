# A black corner string with one eye inside White's wall is dead. White's
# right side is open to the band between the walls (rows 6-4, never closed), so
# all of it is dame: an open boundary is nobody's territory.
komi 0
board
. X O . O . . . .
X X O . O . . . .
O O O . O . . . .
. . . . O . . . .
O O O O O . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X X X X X
. . . . . . . . .
classes
w x O w O . . . .
x x O w O . . . .
O O O w O . . . .
w w w w O . . . .
O O O O O . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X X X X X
b b b b b b b b b
# territory: 9 - (8 + 2 x 3 dead: prisoners and points) = -5
score_territory -5
# area: (9 + 9) - (14 + 8 + 3) = -7
score_area -7
