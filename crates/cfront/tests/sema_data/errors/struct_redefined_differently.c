// error at 3: redefinition of `s`
struct s { int a; };
struct s { long a; };
int main(void) { return 0; }
