"""The table companion: a Kivy phone app beside the physical board, online over GraphQL or offline on the engine.

Layout: `client.py` (the service and the offline engine behind one `TableBackend` interface), `presenters/`
(all behaviour, no Kivy), `screens/` (`.kv` layout plus thin screen classes), `app.py` (the Kivy App).
"""
