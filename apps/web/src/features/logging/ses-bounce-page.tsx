import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SesBouncePage() {
  return <ScreenPlaceholder />;
}
