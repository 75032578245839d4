# Dead stones left on the board: a white stone in Black's territory and a black
# stone in White's. Neither wall has clean eye space until the other side's dead
# stone is removed (the judge's relaxed round: the smaller enclosure dies first).
komi 6.5
board
. . . X O . . . .
. O . X O . . . .
. . . X O . . X .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
classes
b b b X O w w w w
b o b X O w w w w
b b b X O w w x w
b b b X O w w w w
b b b X O w w w w
b b b X O w w w w
b b b X O w w w w
b b b X O w w w w
b b b X O w w w w
# territory: (26 + 2 for the dead white stone) - (35 + 2 for the dead black) - 6.5
score_territory -15.5
result_territory W+15.5
# area: (9 + 27) - (9 + 36) - 6.5
score_area -15.5
