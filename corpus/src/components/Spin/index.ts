export { default } from './Spin';
export type { SpinProps } from './Spin';
