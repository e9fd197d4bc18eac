code
