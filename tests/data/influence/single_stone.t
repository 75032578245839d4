# One black stone in the centre of 9x9: stone power along lines and diagonals,
# and how the threshold changes IPs, lumps and cores.
board
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
tau 140
si 4 4 100     # own point
si 5 4 100     # d(1) = 1
si 6 4 50      # d(2) = 2
si 7 4 33      # d(3) = 3
si 8 4 20      # d(4) = 5
si 4 0 20
si 5 5 71      # 1/sqrt(2)
si 6 6 35      # 1/sqrt(8): the paper's example
si 6 5 45      # 1/sqrt(5)
count ip_black 0        # no empty point reaches 140 from one stone
count ip_white 0
tau 50
# IPs: 8 on the lines (100, 50) and 4 diagonals (71): one lump, but no 2x2
# square of IPs (the stone itself is not an IP), so no core and no area.
count ip_black 12
count lump_black 1
count core_black 0
count ia_black 0
count score_black 0     # the 80-point empty region is too big to be territory
tau 45
# The knight's-move points (45) join: 8 cores (two beside each arm), area 20.
count ip_black 20
count lump_black 1
count core_black 8
count ia_black 20
count score_black 20
