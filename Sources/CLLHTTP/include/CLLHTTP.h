#ifndef FAULTLINE_CLLHTTP_H
#define FAULTLINE_CLLHTTP_H
/* llhttp is compiled from Debian's node-llhttp sources (see the .c files beside this one). */
#include "/usr/share/include/llhttp/llhttp.h"
#endif
