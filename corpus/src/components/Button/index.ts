import Button from './Button';
import ButtonGroup from './ButtonGroup';

type ButtonComponent = typeof Button & { Group: typeof ButtonGroup };

const ExportedButton = Button as ButtonComponent;
ExportedButton.Group = ButtonGroup;

export default ExportedButton;
export { ButtonGroup };
export type { ButtonProps, ButtonType, ButtonTheme, ButtonSize } from './Button';
export type { ButtonGroupProps } from './ButtonGroup';
