/* arpa/inet.h: the byte order of the network and the dotted text of an
   IPv4 address. They are not in unistd.c, whose functions the harness's
   descriptor model renames and compiles beside the C library. */

/* The network byte order is big-endian, the hosts' (x86) little-endian. */
unsigned int
htonl(unsigned int host)
{
    return host << 24 | (host & 0xff00) << 8 | (host >> 8 & 0xff00) | host >> 24;
}

unsigned short
htons(unsigned short host)
{
    return (unsigned short)(host << 8 | host >> 8);
}

unsigned int
ntohl(unsigned int network)
{
    return htonl(network);
}

unsigned short
ntohs(unsigned short network)
{
    return htons(network);
}

struct in_addr {
    unsigned int s_addr;
};

/* glibc's buffer: 18 bytes, one per thread, which every call overwrites. */
_Thread_local char __tarsier_inet_ntoa_text[18];

/* The address's bytes in memory (network) order, in decimal, dotted. */
char *
inet_ntoa(struct in_addr address)
{
    const unsigned char *bytes = (const unsigned char *)&address;
    char *text = __tarsier_inet_ntoa_text;
    int at = 0;
    for (int i = 0; i < 4; i++) {
        unsigned int byte = bytes[i];
        if (byte >= 100)
            text[at++] = (char)('0' + byte / 100);
        if (byte >= 10)
            text[at++] = (char)('0' + byte / 10 % 10);
        text[at++] = (char)('0' + byte % 10);
        text[at++] = i < 3 ? '.' : 0;
    }
    return text;
}
