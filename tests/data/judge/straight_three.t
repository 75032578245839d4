# A black group on the top edge with a straight three of eye space (B9 C9
# D9) and no outside liberty, shut in by a living white wall. Dead: White's
# C9 kills it. Random playouts from this position let Black play C9 first in
# about half of them, so the Monte-Carlo majority alone is a coin toss here;
# the judge also kills a weak group shut in by strong walls only (judge.h
# step 4). Black's two-eyed corner group at the bottom right lives.
komi 0
board
X . . . X O . . .
X X X X X O . . .
O O O O O O . . .
. . . . . . . . .
. . . . . O O O O
. . . . . O X X X
. . . . . O X . X
. . . . . O X X X
. . . . . O X . X
classes
x w w w x O w w w
x x x x x O w w w
O O O O O O w w w
w w w w w w w w w
w w w w w O O O O
w w w w w O X X X
w w w w w O X b X
w w w w w O X X X
w w w w w O X b X
# territory: black 2 (H3, H1); white 46 empty + 7 points under the dead
# stones + 7 prisoners = 60
score_territory -58
result_territory W+58
# area: black 10 stones + 2; white 16 stones + 46 + 7
score_area -57
