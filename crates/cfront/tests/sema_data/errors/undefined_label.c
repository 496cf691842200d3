// error: label `nowhere` used but not defined
int main(void) { goto nowhere; return 0; }
