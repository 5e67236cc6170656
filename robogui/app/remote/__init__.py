"""The remote API in the app: the WebSocket server on its own thread handing requests to the
GUI thread through queued Qt signals, and the Live menu (Follow, Record, Save recording).

May import: the lower layers, and the app's base modules (undo, bindings).
"""
