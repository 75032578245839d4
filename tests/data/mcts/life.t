# Life and death of Black's big group (A-F, 51 stones) inside White's wall
# (G) and White's two eyes (H-J). Black alive: 54 points to 27 and komi 7,
# Black wins by 20; dead: White takes the board. So the group's life is the
# game, and the vital point of its eye space is the one winning move for
# either side to move.

% straight three inside: the middle point (B5) makes two eyes or kills
X X X X X X O . O
X X X X X X O . O
X X X X X X O . O
X . X X X X O . O
X . X X X X O O O
X . X X X X O . O
X X X X X X O . O
X X X X X X O . O
X X X X X X O . O
black B5
white B5

% bent three in the corner: the bend (A1) makes two eyes or kills
X X X X X X O . O
X X X X X X O . O
X X X X X X O . O
X X X X X X O . O
X X X X X X O O O
X X X X X X O . O
X X X X X X O . O
. X X X X X O . O
. . X X X X O . O
black A1
white A1

% straight three on the edge: the middle point (A5)
X X X X X X O . O
X X X X X X O . O
X X X X X X O . O
. X X X X X O . O
. X X X X X O O O
. X X X X X O . O
X X X X X X O . O
X X X X X X O . O
X X X X X X O . O
black A5
white A5
