# Unfilled dame between two walls, and prisoners: territory counts prisoners,
# area counts stones; the dame column counts for nobody.
komi 0.5
captures 2 5
board
. . . X . O . . .
. . . X . O . . .
. . . X . O . . .
. . . X . O . . .
. . . X . O . . .
. . . X . O . . .
. . . X . O . . .
. . . X . O . . .
. . . X . O . . .
classes
b b b X . O w w w
b b b X . O w w w
b b b X . O w w w
b b b X . O w w w
b b b X . O w w w
b b b X . O w w w
b b b X . O w w w
b b b X . O w w w
b b b X . O w w w
score_territory -3.5   # (27 + 2) - (27 + 5) - 0.5
result_territory W+3.5
score_area -0.5        # (9 + 27) - (9 + 27) - 0.5
result_area W+0.5
