export { default } from './toastManager';
export { ToastItem } from './Toast';
export type { ToastProps, ToastType } from './Toast';
export type { ToastOptions, ToastConfig } from './toastManager';
