/* Stand-in for <GL/gl.h> (see ctest/syshdr/README.md): the OpenGL 1.1 scalar types. */
#ifndef __gl_h_
#define __gl_h_

/* The GL_VERSION string name, which NVIDIA's cuda_gl_interop.h looks for on ARM. */
#define GL_VERSION 0x1F02

typedef unsigned int GLenum;
typedef unsigned char GLboolean;
typedef unsigned int GLbitfield;
typedef void GLvoid;
typedef signed char GLbyte;
typedef short GLshort;
typedef int GLint;
typedef unsigned char GLubyte;
typedef unsigned short GLushort;
typedef unsigned int GLuint;
typedef int GLsizei;
typedef float GLfloat;
typedef double GLdouble;

#endif /* __gl_h_ */
