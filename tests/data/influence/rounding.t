# Rounding once, half away from zero: SI sums the exact stone powers and
# rounds the sum (docs/INFLUENCE.md, "Rounding").
board
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
X . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
tau 10
si 5 5 13      # 100/8 = 12.5, a half: away from zero
si 3 5 33      # 100/3
ip 5 5 B
board
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . O
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
tau 10
si 5 5 -13     # -12.5: the colour-swapped position gets the opposite SI
ip 5 5 W
board
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . X . . . . . X . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
tau 113
si 5 5 113     # 3 x 100/3 + 12.5 = 112.5 -> 113; rounded powers: 3 x 33 + 13 = 112
ip 5 5 B       # an IP at tau 113, as the exact sum says
