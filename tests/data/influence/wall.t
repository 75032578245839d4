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
# row 6 (4 below the wall): x=4 gets 14+17+19+20+20+20+19+17+14 = 160,
# x=2 exactly 140 (an IP: SI >= tau), x=1 121, x=0 101
si 4 6 160
si 2 6 140
si 1 6 121
ip 2 6 B
ip 1 6 .
count ip_black 50       # 18 above + 27 in rows 3-5 + 5 in row 6
count lump_black 2      # the wall separates above and below
count core_black 28     # 8 above, 8 + 8 + 4 below
count ia_black 50
count territory_black 18
count score_black 50    # territory is inside the IA: each point counts once
count ip_white 0
