# A black wall across 9x9: territory above it (18 points, a closed region of at
# most a quarter of the board), a large influence area below it.
board
. . . . . . . . .
. . . . . . . . .
X X X X X X X X X
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
tau 140
# row 6 (4 below the wall), exact powers summed and rounded once: x=4 gets
# 14.14+17.15+18.57+19.61+20+19.61+18.57+17.15+14.14 = 158.95 -> 159, x=3
# 155.40, x=2 138.25 (not an IP; the sum of rounded powers gave exactly 140),
# x=1 119.68, x=0 100.07
si 4 6 159
si 3 6 155
si 2 6 138
si 1 6 120
si 0 6 100
ip 3 6 B
ip 2 6 .
ip 1 6 .
count ip_black 48       # 18 above + 27 in rows 3-5 + 3 in row 6
count lump_black 2      # the wall separates above and below
count core_black 26     # 8 above, 8 + 8 + 2 below
count ia_black 48
count territory_black 18
count score_black 48    # territory is inside the IA: each point counts once
count ip_white 0
