/* The same struct declared in both units: compatible across them. */
struct pair { int a, b; };
extern struct pair shared_pair;
