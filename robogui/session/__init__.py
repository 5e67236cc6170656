"""Qt-free application state observed by the app."""
