// error at 2: duplicate case value
int main(void) { int x = 0; switch (x) { case 1: case 1: break; } return 0; }
