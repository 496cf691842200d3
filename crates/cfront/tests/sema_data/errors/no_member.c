// error at 3: no member named `z`
struct s { int a; };
int main(void) { struct s v = {0}; return v.z; }
