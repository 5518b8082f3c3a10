"""The local drag-and-drop page (`mafia-sheets serve`)."""
