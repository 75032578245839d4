# A seki on the top edge: black (C9 C8 C7 D7) and white (E9 E8 E7) share the
# two liberties D9 and D8, neither has an eye, neither can approach. The seki
# points belong to nobody; the seki stones are alive.
komi 0
board
. O X . O X . . .
. O X . O X . . .
. O X X O X . . .
. O O O X X . . .
. . . O X . . . .
. . . O X . . . .
. . . O X . . . .
. . . O X . . . .
. . . O X . . . .
classes
w O X s O X b b b
w O X s O X b b b
w O X X O X b b b
w O O O X X b b b
w w w O X b b b b
w w w O X b b b b
w w w O X b b b b
w w w O X b b b b
w w w O X b b b b
score_territory 13    # 32 - 19
result_territory B+13
score_area 13         # (14 stones + 32) - (14 stones + 19)
