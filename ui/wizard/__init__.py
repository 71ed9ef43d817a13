"""The wizard's pages: which answers each asks for, and the page widget built from them."""
