# Stability cases (format: README.md). Expected ranges follow the formula in
# worker/stability.h; the life-and-death status of each shape is given in the
# case name.

% alive: two separate true eyes in the corner (pass-alive)
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
X X X X X . .
. X . X . . .
X X X X X . .
stability B2 1 1
passalive B2 yes
passalive A2 yes
passalive C2 yes
passalive E2 no

% dead: a black corner string captured even when Black moves first
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
O O O O . . .
X X . . O . .
stability A1 0 0
stability A2 0.2 1   # White's wall borders only White's open area: 2 eyes by the formula
noreader
stability A1 0.05 0.3

% seki: D6-D5 and the white string around E6/E5 share their only liberties
# (shape from Pachi's t-unit/seki.t "Simple seki (2 stones)")
. . O X . O
. O O X . O
. O X O O O
. O X X X X
. O X . X .
. O X . X .
stability D6 0.2 0.6
stability F5 0.2 0.6
stability E3 1 1
passalive E3 yes
passalive D6 no
passalive F5 no

% unsettled: a cutting stone with two liberties, whoever moves first decides
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . X O . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
stability D5 0.05 0.3
stability D6 0.05 0.5

% one eye: a black group with one true eye and open liberties outside
# (White G7 keeps the open area from counting as Black's eye space)
. . . . . . O
. . . . . . .
. . . . . . .
X X X X . . .
X . X X . . .
X X X X . . .
. . . . . . .
stability B4 0.3 0.9
passalive A4 no
passalive B3 no

% false eye: C1 is false (White D2 on its diagonal; D1 is cut off), A2 is true
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
X X X X . . .
. X X O . . .
X X . X . . .
stability A3 0.3 0.9
samegroup A3 D1 yes
passalive A3 no
passalive D1 no
