# Capture races and unsettled strings in random local positions, labelled by
# GNU Go 3.8 (attack/defend), kept where the reader agrees on the result. A
# reader move that differs from GNU Go's was accepted only after GNU Go
# confirmed it (after the move, the opposite query fails).
# Made by a crafting script from seeds 31 and 32; each target has 2-3 liberties
# and an adjacent enemy string with no more liberties than it.

% race 31.2: GNU Go attack 0, defend 1 C3
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X O X . O . . . .
. . X O . . . . .
O X O . . . . . .
O X . X . . . . .
. O O O . . . . .
. . . . . . . . .
attack C4 saved
defend C4 saved C3

% race 31.3: GNU Go attack 1 G1, defend 1 G1
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . X . .
. . . . . . . X X
. . . . . . X O .
. . . . . O . O .
attack H2 captured G1
defend H2 saved G1

% race 31.5: GNU Go attack 1 G5, defend 1 G5
. . . . . . . . .
. . . . . . . . .
. . . . . . . X .
. . . . . O X O X
. . . . . O . O .
. . . . . X X X O
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack H5 captured G5
defend H5 saved G5

% race 31.15: GNU Go attack 0, defend 1 B4
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O X X O O . . . .
O . . . . . . . .
O . O X . . . . .
. . . . X . . . .
O O X . . . . . .
. . . . . . . . .
attack C4 saved
defend C4 saved B4

% race 31.17: GNU Go attack 0, defend 1 C6
. . . . . . . . .
. . . X . . . . .
O X O . X . . . .
. . . . O . . . .
. . O X O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack C7 saved
defend C7 saved C6

% race 31.32: GNU Go attack 0, defend 1 B7
X X . O . . . . .
. O . X . . . . .
O . . . . . . . .
O . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack B8 saved
defend B8 saved B7

% race 31.41: GNU Go attack 1 G3, defend 1 G3
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . O . . X .
. . . . . X O . X
. . . . . . . . .
attack G2 captured G3
defend G2 saved G3

% race 31.47: GNU Go attack 0, defend 1 F5
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . X . X .
. . . O O . . . .
. . . O X O . . .
. . . . . X . O .
. . . . . . . . .
. . . . . . . . .
attack F4 saved
defend F4 saved F5

% race 31.52: GNU Go attack 1 E5, defend 1 E5
. . . . X X . . .
. . O . . . . . .
. . X X O . . . .
. . . X O X . . .
. . O . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack E7 captured E5
defend E7 saved E5

% race 31.55: GNU Go attack 0, defend 1 C3
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. O . X . O . . .
. . . . . . . . .
. . . O . . . . .
. . O X . O . . .
. . . . X . . . .
attack D3 saved
defend D3 saved C3

% race 31.62: GNU Go attack 0, defend 1 D5
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X . O . . . . .
. O X . . X . . .
. . . O . . . . .
. . O X . O . . .
. . X . X O . . .
. . . . . . . . .
attack D4 saved
defend D4 saved D5

% race 31.63: GNU Go attack 1 F7, defend 1 F7
. . . . . X . . .
. . X . O X . . .
. . . X O . O . .
. . O . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack E8 captured F7
defend E8 saved F7

% race 31.97: GNU Go attack 1 H5, defend 1 H5
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . X O .
. . . . . . . . .
. . . . . . X O .
. . . . . . O X O
. . . . . . . X X
. . . . . . . . .
attack H4 captured H5
defend H4 saved H5

% race 31.120: GNU Go attack 0, defend 1 E7
. . . O . . . . .
. . . X O . . . .
. . . . . O . . .
. . X . O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack E8 saved
defend E8 saved E7

% race 31.139: GNU Go attack 1 E5, defend 1 E5
. . . . . . O . .
. . X . X . . . .
. . . . O X O . .
. . . . O X . . .
. . X . . . O . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack E7 captured E5
defend E7 saved E5

% race 31.150: GNU Go attack 0, defend 1 D6
. . . . . . . . .
. . O O . . . . .
. . X O . X X . .
. . X . O . X . .
. . . . X . . . .
. . . . O . X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack E6 saved
defend E6 saved D6

% race 31.151: GNU Go attack 0, defend 1 C8
. . O . . . . . .
X O . . . . . . .
O X O . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack B8 saved
defend B8 saved C8

% race 31.152: GNU Go attack 0, defend 1 E5
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . O . O . . . .
. . . . . O . . .
. . . X O . X . .
. . . O X . X . .
. . O O . X . . .
. . . . . . . . .
attack E4 saved
defend E4 saved E5

% race 31.165: GNU Go attack 0, defend 1 H3
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . O O
. . . . . X O . .
. . . . . . . O X
. . . . . . X O .
attack H2 saved
defend H2 saved H3

% race 31.173: GNU Go attack 1 F3, defend 1 F3
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . O O . .
. . . X . . X . .
. . . X X O . . .
. . . O . O X . .
attack F2 captured F3
defend F2 saved F3

% race 31.180: GNU Go attack 0, defend 1 C5
. . . . . . . . .
. . . X X . . . .
O . . X . . . . .
. X O . X . . . .
. . . . . . . . .
. O O . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack C6 saved
defend C6 saved C5

% race 31.193: GNU Go attack 1 G2, defend 1 G2
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . X X . O
. . . . . O . X X
. . . . . . . O .
. . . . . . . . X
attack H2 captured G2
defend H2 saved G2

% race 31.203: GNU Go attack 0, defend 1 D7
. . . . . . . . .
. X X . . . . . .
. . . . O . . . .
. . X O . . . . .
. X . O X . . . .
. . O X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack D6 saved
defend D6 saved D7

% race 31.207: GNU Go attack 0, defend 1 B7
. . . . . . . . .
. O X . . . . . .
O . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
attack B8 saved
defend B8 saved B7

