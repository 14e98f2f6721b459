#if NPAGES == 1024 && ROUNDS == 2400
#define WANT_DIGEST 0x7a88965f82b85725ull
#define WANT_POOL 0x7a9da0cabf5cb579ull
#endif
#if NPAGES == 64 && ROUNDS == 8
#define WANT_DIGEST 0x3fca402c4181c815ull
#define WANT_POOL 0xc2e8e7e580badf85ull
#endif
