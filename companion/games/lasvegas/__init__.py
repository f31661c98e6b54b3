"""Las Vegas (Rüdiger Dorn, alea 2012): dice placed on six casinos, banknotes paid out each round.

``rules`` holds the engine, ``payout`` the casino payout with its tie rule, ``banknotes`` the deck,
and ``simulate`` the seeded input source for the virtual deck, mock mode and tests.
"""
