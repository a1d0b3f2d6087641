import Checkbox from './Checkbox';
import CheckboxGroup from './CheckboxGroup';

type CheckboxComponent = typeof Checkbox & { Group: typeof CheckboxGroup };

const ExportedCheckbox = Checkbox as CheckboxComponent;
ExportedCheckbox.Group = CheckboxGroup;

export default ExportedCheckbox;
export { CheckboxGroup };
export type { CheckboxProps } from './Checkbox';
export type { CheckboxGroupProps } from './CheckboxGroup';
