"""Las Vegas (Rüdiger Dorn, alea 2012): dice placed on six casinos, banknotes paid out each round.

``rules`` holds the engine, ``actions`` its inputs, ``state`` what lies on the table, ``options`` the
setup's choices, ``payout`` the casino payout with its tie rule, ``banknotes`` the deck, ``words`` and
``view`` what the table is told and shown, and ``simulate`` the seeded input source for the virtual
deck, mock mode and tests.
"""
