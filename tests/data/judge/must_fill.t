# Must-fill point (Japanese counting). White's lone stone D9 has two
# liberties: C9 in White's territory and the dame E9. Once Black fills E9
# the stone is in atari and White must connect at C9, so C9 is not White's
# territory under territory rules (judge.h step 6). It is still White's area
# (the point ends up a white stone), so the area score is unchanged. KGS
# counts these points the same way (its TB/TW markup leaves them out).
komi 0
board
. . . O . X . . .
. . O X X X . . .
. . O X . . . . .
. . O X . . . . .
. . O X . . . . .
. . O X . . . . .
. . O X . . . . .
. . O X . . . . .
. . O X . . . . .
classes
w w w O . X b b b
w w O X X X b b b
w w O X b b b b b
w w O X b b b b b
w w O X b b b b b
w w O X b b b b b
w w O X b b b b b
w w O X b b b b b
w w O X b b b b b
# territory: black 41, white 19 - 1 (C9 must be filled)
score_territory 23
result_territory B+23
# area: (11 stones + 41) - (9 stones + 19)
score_area 24
result_area B+24
