// Stylesheets imported with { type: 'text' } (embedded vendor files).
declare module '*.css' {
  const text: string
  export default text
}
