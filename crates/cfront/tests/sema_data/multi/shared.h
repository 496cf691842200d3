/* The same struct declared in both units: compatible across them. */
struct pair { int a, b; };
extern struct pair shared_pair;
/* An inline definition every unit sees. */
inline int pair_first(struct pair *p) { return p->a; }
