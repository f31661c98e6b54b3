"""Who may change the game: the table PIN, one budget of wrong guesses per client and per table, the
tablets' sessions, and the console's way to set a PIN. Below the table and the web, which both ask it."""
