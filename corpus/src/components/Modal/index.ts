import Modal from './Modal';
import { confirm, destroyAll } from './confirm';
import type { ConfirmOptions } from './confirm';

type ModalComponent = typeof Modal & {
    confirm: typeof confirm;
    info: (options: ConfirmOptions) => ReturnType<typeof confirm>;
    success: (options: ConfirmOptions) => ReturnType<typeof confirm>;
    warning: (options: ConfirmOptions) => ReturnType<typeof confirm>;
    error: (options: ConfirmOptions) => ReturnType<typeof confirm>;
    destroyAll: typeof destroyAll;
};

const ExportedModal = Modal as ModalComponent;
ExportedModal.confirm = (options) => confirm({ type: 'confirm', ...options });
ExportedModal.info = (options) => confirm({ ...options, type: 'info', cancelButtonProps: { style: { display: 'none' } } });
ExportedModal.success = (options) => confirm({ ...options, type: 'success', cancelButtonProps: { style: { display: 'none' } } });
ExportedModal.warning = (options) => confirm({ ...options, type: 'warning', cancelButtonProps: { style: { display: 'none' } } });
ExportedModal.error = (options) => confirm({ ...options, type: 'error', cancelButtonProps: { style: { display: 'none' } } });
ExportedModal.destroyAll = destroyAll;

export default ExportedModal;
export type { ModalProps } from './Modal';
export type { ConfirmOptions, ConfirmHandle } from './confirm';
