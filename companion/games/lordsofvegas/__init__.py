"""Lords of Vegas (James Ernest and Mike Selinker, Mayfair 2nd edition): the rules engine for 2-4 players."""
