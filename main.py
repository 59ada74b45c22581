"""Android entry point (buildozer needs a main.py at source.dir): the same app as `python -m mobile`.

yarl, multidict and propcache are packaged without their C extensions; these variables make them use their
pure-Python code instead of failing to import the missing compiled module. They must be set before gql is imported.
"""

import os

for _name in ("YARL_NO_EXTENSIONS", "MULTIDICT_NO_EXTENSIONS", "PROPCACHE_NO_EXTENSIONS"):
    os.environ.setdefault(_name, "1")

from mobile.app import BrimstoneApp  # noqa: E402 - after the variables above

if __name__ == "__main__":
    BrimstoneApp().run()
