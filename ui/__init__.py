"""The PyQt6 window: renders views, sends intents; never decides a rule."""
