# Simple ko under every rule set.

case simple ko: immediate retake is illegal, after a threat it is legal
rules japanese
board
. X O . .
X O . O .
. X O . .
. . . . .
. . . . .
end
play B C4 captures 1
play W B4 illegal ko
play W E1
play B E2
play W B4 captures 1
play B C4 illegal ko

case simple ko under chinese rules (superko does not change the immediate case)
rules chinese
board
. X O . .
X O . O .
. X O . .
. . . . .
. . . . .
end
play B C4 captures 1
play W B4 illegal ko
play W D1
play B D2
play W B4 captures 1

case simple ko: take, pass, pass, retake is legal under japanese
rules japanese
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
play W B4 captures 1

case capturing three stones is not a ko; the hole is then suicide for White
board
. . . . .
. X O X .
X O . O X
. X O X .
. . X . .
end
play B C3 captures 3
play W C2 illegal suicide
