# Territory: a closed one-colour empty region of at most a quarter of the board.
board
. X . . .
X X . . .
. . . . .
. . . O O
. . . O .
tau 300
count ip_black 0
count ip_white 0
count territory_black 1   # the corner point; the big region touches both colours
count territory_white 1
count score_black 1
count score_white 1
