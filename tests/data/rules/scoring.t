# Area, territory and Tromp-Taylor counts, dead stones, prisoners, seki, komi.
#
# Black: 6 stones (column B and A2); White: 7 live stones (column D, E4, E2)
# plus the white stone at A3, dead inside Black's area. Column C is dame.

case area and territory with a dead stone
rules chinese
komi 0.5
board
. X . O .
. X . O O
O X . O .
X X . O O
. X . O .
end
owner
. X . O O
. X . O O
O X . O O
X X . O O
X X . O O
end
score area W+4.5               # A3 alive: B 6+1, W 8+3+0.5
score tromp-taylor W+4.5
score area dead A3 W+0.5       # B 6+4, W 7+3+0.5
score territory dead A3 B+1.5  # B 4 territory + 1 prisoner, W 3 + 0.5
score rules dead A3 W+0.5      # chinese: area

case the same stone captured instead of counted dead
rules japanese
komi 0.5
board
. X . O .
. X . O O
O X . O .
X X . O O
. X . O .
end
play B A4 captures 1
score territory B+0.5          # B 3 territory + 1 prisoner, W 3 + 0.5
score area W+0.5               # B 7+3, W 7+3+0.5
score rules B+0.5              # japanese: territory

case seki: shared liberties are neutral
komi 0
board
. X . O .
X X . O O
X X . O O
X X . O O
. X . O .
end
owner
X X . O O
X X . O O
X X . O O
X X . O O
X X . O O
end
score area 0
score territory 0
score tromp-taylor 0

case default komi of the rule set is used
rules korean
board
. X . O .
X X . O O
X X . O O
X X . O O
. X . O .
end
score rules W+6.5

case empty board: everything neutral, komi decides
rules tromp-taylor
size 5
score tromp-taylor W+7.5
score area W+7.5
