# Capture races. The side that wins the race takes the other's big group,
# and with it the game.

% race: an eye and a shared liberty against three liberties
# Black's left group (A-E): its eye B5 and the shared liberty E5. White's
# wall (F): E5 and the outside liberties G8 and G2 (Black's right group
# H-J lives). Black to move takes an outside liberty first (E5 would be
# self-atari); White to move takes the shared one, which leaves Black one
# liberty against White's two.
X X X X X O X X .
X X X X X O . X .
X X X X X O X X .
X X X X X O X X .
X . X X . O X X X
X X X X X O X X .
X X X X X O X X .
X X X X X O . X .
X X X X X O X X .
black G8|G2
white E5

% capture the cutting stones or connect them out
# White's five stones on row 5 cut Black's side in two; each half has one
# eye (B8, B2) and F5 as its other liberty. Black takes the five at F5: one
# group with two eyes and the captured row. White connects them at F5 to
# the wall on G: both halves are left in atari, and die.
X X X X X X O . O
X . X X X X O . O
X X X X X X O . O
X X X X X X O . O
O O O O O . O O O
X X X X X X O . O
X X X X X X O . O
X . X X X X O . O
X X X X X X O . O
black F5
white F5
