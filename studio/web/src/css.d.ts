// esbuild bundles the stylesheet main.tsx imports; to TypeScript it is a module of nothing.
declare module '*.css';
