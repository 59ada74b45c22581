"""The four Forbidden Fortress Hero Classes' own rules (§20): what they spend and when.

The Assassin's Nimble, Deadly and Shuriken live with movement and Fights (activation.py, fight.py); the Samurai's
Fury gain with the Hits that earn it (fight.py); the Monk's Ki and the Sorceress's Mana refill with the turn (turn.py).
"""
