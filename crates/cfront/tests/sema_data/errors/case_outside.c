// error at 2: not within a switch
int main(void) { case 1: return 0; }
