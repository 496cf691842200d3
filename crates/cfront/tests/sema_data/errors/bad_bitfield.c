// error at 2: exceeds its type
struct s { char c : 9; };
int main(void) { return 0; }
