# Positional and situational superko.
#
# Triple ko on 9x9: kos at B8/C8 (white inside), B5/C5 (black inside) and
# B2/C2 (white inside). Six ko captures, each legal under simple ko, bring
# back the starting position with Black to move.

case triple ko: legal under japanese (simple ko)
rules japanese
board
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
. X O . . . . . .
X . X O . . . . .
. X O . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
end
play B C8 captures 1
play W B5 captures 1
play B C2 captures 1
play W B8 captures 1
play B C5 captures 1
play W B2 captures 1
expect-board
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
. X O . . . . . .
X . X O . . . . .
. X O . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
end

case triple ko: the sixth capture repeats the position under chinese (positional)
rules chinese
board
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
. X O . . . . . .
X . X O . . . . .
. X O . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
end
play B C8 captures 1
play W B5 captures 1
play B C2 captures 1
play W B8 captures 1
play B C5 captures 1
play W B2 illegal superko
play W E5                  # the board is unchanged, other moves still work

case triple ko: illegal under tromp-taylor too
rules tromp-taylor
board
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
. X O . . . . . .
X . X O . . . . .
. X O . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
end
play B C8
play W B5
play B C2
play W B8
play B C5
play W B2 illegal superko

case triple ko: illegal under aga (same position, same side to move)
rules aga
board
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
. X O . . . . . .
X . X O . . . . .
. X O . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
end
play B C8
play W B5
play B C2
play W B8
play B C5
play W B2 illegal superko

case ko after two passes: positional superko forbids the retake under chinese
rules chinese
board
. X O . .
X O . O .
. X O . .
. . . . .
. . . . .
end
play B C4 captures 1
play W pass
play B pass
play W B4 illegal superko

case single-stone suicide repeats the stones: illegal under tromp-taylor (positional)
rules tromp-taylor
board
. X .
X . .
. . .
end
to-move W
play W A3 illegal superko

case the same suicide is legal under new-zealand (situational: other side to move)
rules new-zealand
board
. X .
X . .
. . .
end
to-move W
play W A3 captures 1
expect-board
. X .
X . .
. . .
end
