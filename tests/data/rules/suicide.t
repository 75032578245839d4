# Suicide: legal under new-zealand and tromp-taylor, illegal elsewhere.

case single-stone suicide is illegal under japanese
rules japanese
board
. X .
X . .
. . .
end
to-move W
play W A3 illegal suicide

case single-stone suicide is illegal under chinese
rules chinese
board
. X .
X . .
. . .
end
play W A3 illegal suicide

case multi-stone suicide is illegal under japanese
rules japanese
board
O X . .
O X . .
. X . .
X X . .
end
play W A2 illegal suicide

case multi-stone suicide is illegal under aga
rules aga
board
O X . .
O X . .
. X . .
X X . .
end
play W A2 illegal suicide

case multi-stone suicide is legal under tromp-taylor
rules tromp-taylor
board
O X . .
O X . .
. X . .
X X . .
end
play W A2 captures 3
expect-board
. X . .
. X . .
. X . .
X X . .
end
score tromp-taylor B+8.5   # komi 7.5: 5 stones + 11 empty points for Black = 16 -> 16 - 7.5

case multi-stone suicide is legal under new-zealand
rules nz
board
O X . .
O X . .
. X . .
X X . .
end
play W A2 captures 3

case a move that captures is not suicide
rules japanese
board
. X O .
X O . .
. . . .
. . . .
end
play W A4 captures 1
