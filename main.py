"""Android entry point (buildozer needs a main.py at source.dir): the same app as `python -m mobile`."""

from mobile.app import BrimstoneApp

if __name__ == "__main__":
    BrimstoneApp().run()
