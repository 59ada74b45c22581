"""Drivers that play a rule area's loop with a policy (simulations, odds): pure, no I/O, through `apply()`."""
