"""All of the app's behaviour, with no Kivy import: each screen has a presenter that reads the table and sends
commands, so it is tested without a window (tests/mobile/test_presenters_*.py)."""
