#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <stdlib.h>
static uint64_t now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000ull+t.tv_nsec;}
int main(int argc,char**argv){int n=atoi(argv[1]);volatile uint64_t x=1;static char buf[1<<20];
for(int i=0;i<n;i++){uint64_t t0=now();for(int k=0;k<2000000;k++){x=x*6364136223846793005ull+1442695040888963407ull;buf[(x>>40)&((1<<20)-1)]++;}
uint64_t t1=now();printf("%.3f\n",(t1-t0)/1e6);fflush(stdout);struct timespec s={0,100000000};nanosleep(&s,0);}return 0;}
