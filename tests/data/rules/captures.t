# Captures, multiple captures, snapback.

case single stone in the corner
size 5
play B A5
play W B5
play B E1
play W A4 captures 1
expect-board
. O . . .
O . . . .
. . . . .
. . . . .
. . . . X
end
play B A5 illegal suicide

case one move captures three separate strings
board
. X O X .
X O . O X
. X O X .
. . . . .
. . . . .
end
play B C4 captures 3
expect-board
. X . X .
X . X . X
. X O X .
. . . . .
. . . . .
end
play W C5 illegal suicide   # no liberty, and no black neighbour in atari

case snapback
board
X O . . X
X O O O X
. X X X .
. . . . .
. . . . .
end
play B C5 captures 0     # throw-in, in atari
play W D5 captures 1     # takes it, and is left with one liberty (not a ko)
play B C5 captures 5     # snapback
expect-board
X . X . X
X . . . X
. X X X .
. . . . .
. . . . .
end

case occupied point
size 5
play B C3
play W C3 illegal occupied
play W pass
play B C3 illegal occupied
