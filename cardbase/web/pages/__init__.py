"""One module a page: its routes call the library and render its templates."""
